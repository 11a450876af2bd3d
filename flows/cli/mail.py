"""``chessfed mail [INPUTS] [--out OUTPUTS] [--only EVENT] [--retry] [--delivered KEY]
[--resend KEY]``: the letters not delivered yet, event by event (pending, failed, of unknown
fate, superseded, with the server's answer; and those the last run could not make), with
``--retry`` the pending ones sent now and the failed ones once more, as the outbox keeps them
(:mod:`flows.pipeline.stored_letters`), and with ``--delivered`` / ``--resend`` the office's word on a letter
of unknown fate — so that nobody edits the delivery ledger by hand.

Exit status: 0 nothing is left to deliver or resolve, 2 a wrong command (an unknown event or
letter, a folder that is not one), 4 letters are still pending, failed, not made or of unknown
fate (``flows.pipeline.run_index.EXIT_CODES``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser("mail", help="list the letters not delivered yet; --retry sends them")
    m.add_argument("inputs", nargs="?", default="inputs")
    m.add_argument("--out", default="outputs")
    m.add_argument("--only", action="append", help="this event folder only (repeatable)")
    m.add_argument("--retry", action="store_true",
                   help="send every pending letter now, and the failed ones once more")
    m.add_argument("--delivered", action="append", default=[], metavar="KEY",
                   help="a letter of unknown fate arrived (the recipient has it): recorded as "
                        "sent, never sent again (repeatable; with --only EVENT)")
    m.add_argument("--resend", action="append", default=[], metavar="KEY",
                   help="a letter of unknown fate did not arrive: pending again, sent by "
                        "--retry or the next run (repeatable; with --only EVENT)")
    m.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from flows.pipeline import publish_folder
    from flows.pipeline import stored_letters as mailing
    from flows.pipeline.run_index import event_folders

    inputs, out = Path(args.inputs), Path(args.out)
    if not inputs.is_dir():
        print(f"chessfed mail: {inputs} is not a folder", file=sys.stderr)
        return 2
    folders = event_folders(inputs)
    unknown = sorted(set(args.only or []) - {f.name for f in folders})
    if unknown:
        print(f"chessfed mail: no event folder {', '.join(unknown)} under {inputs}", file=sys.stderr)
        return 2
    if (args.delivered or args.resend) and len(args.only or []) != 1:
        print("chessfed mail: --delivered and --resend need the event: --only EVENT (one)",
              file=sys.stderr)
        return 2
    left = 0
    for folder in folders:
        if args.only and folder.name not in args.only:
            continue
        out_dir = out / folder.name
        for keys, status in ((args.delivered, "sent"), (args.resend, "pending")):
            for key in keys:
                try:
                    with publish_folder.event_lock(out_dir):
                        why = mailing.resolve(folder, out_dir, key, status)
                except publish_folder.Busy as e:
                    print(f"chessfed mail: {e}", file=sys.stderr)
                    return 2
                if why:
                    print(f"chessfed mail: {why}", file=sys.stderr)
                    return 2
                print(f"{folder.name}: {key} " + ("recorded as delivered" if status == "sent"
                                                  else "to send again (pending)"))
        rows = mailing.waiting(out_dir)
        if args.retry and any(r["status"] in ("pending", "failed") for r in rows):
            cfg = mailing.event_config(folder, out_dir)
            if cfg is None or not cfg.publish.smtp_host:
                print(f"{folder.name}: no [publish] smtp_host in event.toml: nothing can be sent")
            else:
                try:
                    with publish_folder.event_lock(out_dir):
                        d = mailing.send_stored(folder, out_dir, cfg, again=("failed",))
                except publish_folder.Busy as e:
                    print(f"chessfed mail: {e}", file=sys.stderr)
                    return 2
                why = f" ({d.reason})" if d.reason else ""
                print(f"{folder.name}: {d.sent} sent, {d.pending} still pending{why}, "
                      f"{d.failed} failed")
                rows = mailing.waiting(out_dir)
        todo = [r for r in rows if r["status"] in ("pending", "failed")]
        unknown = [r for r in rows if r["status"] == "unknown"]
        unmade = mailing.not_made(out_dir)
        left += len(todo) + len(unknown) + len(unmade)
        others = len(rows) - len(todo) - len(unknown)
        print(f"{folder.name}: {len(todo)} letters to deliver"
              + (f", {len(unknown)} of unknown fate to resolve" if unknown else "")
              + (f", {len(unmade)} not made" if unmade else "")
              + (f", {others} others to look at" if others else ""))
        for r in rows:
            print(f"  {r['status']:<10} {r['key']}  to {r['recipient']}  «{r['subject']}»  "
                  f"{r['reply']}")
        for r in unmade:
            print(f"  {'not made':<10} {r.get('key', '')}  {r.get('reason', '')}")
        if unmade:
            print("  (not made: correct the value the reason names; the next run makes and "
                  "sends the letter)")
        for r in unknown:
            print(f"  resolve {r['key']}: ask its recipient, then "
                  f"`chessfed mail {args.inputs} --out {args.out} --only {folder.name} "
                  f"--delivered {r['key']}` if it arrived, else `… --resend {r['key']}`")
    return 4 if left else 0
