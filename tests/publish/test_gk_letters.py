"""The Golden Knights personal letters, read as their recipients read them: who gets one, what
each kind says (the numbers of the rulebook's frames: schedule, qualifiers, rulings, awards,
prizes, membership flags), keys that stay the same from run to run, and letters that change
only when what they are about changes. Built with the rulebook (``compute``), without Prefect.

The demo (inputs/golden-knights-2019) is complete on its as_of date (15 November 2026); the
earlier states are the demo's inputs as they stood on a day (later results and oversteps not
yet reported, only the stages then published)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from flows import io
from flows.kinds.correspondence import awards as gk_awards
from flows.kinds.correspondence.flow import compute
from flows.kinds.correspondence.letters import gk_letters
from flows.kinds.correspondence.links import People, certificate_file
from flows.mail.letters import KEY, address_problem, html_body, text_body
from flows.site.names import file_part
from flows.site.pages import Publication, event_context
from transforms.core.ingest import validate_files
from transforms.golden_knights.prizes import rule_5_prizes, rule_6_prize_split
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config

ROOT = Path(__file__).resolve().parents[2]
GK = ROOT / "inputs" / "golden-knights-2019"


@pytest.fixture(scope="module")
def demo_inputs():
    cfg = parse_event_config((GK / "event.toml").read_text())
    raw = {n: io.read_csv_strings(GK / n) for n in GK_SCHEMAS if (GK / n).exists()}
    typed, _ = validate_files(raw, GK_SCHEMAS, GK_REQUIRED)
    return cfg, typed


def state(typed: dict, day: dt.date, stages: tuple[str, ...] = ("preliminary", "semifinal", "final")) -> dict:
    """The inputs as they stood on ``day`` with only ``stages`` published."""
    g = typed["games.csv"]
    later = pl.col("ended") > pl.lit(day)
    return {**typed,
            "sections.csv": typed["sections.csv"].filter(pl.col("stage").is_in(list(stages))),
            "games.csv": g.with_columns(result=pl.when(later).then(None).otherwise(pl.col("result")),
                                        ended=pl.when(later).then(None).otherwise(pl.col("ended"))),
            "time_oversteps.csv": typed["time_oversteps.csv"].filter(pl.col("reported") <= pl.lit(day))}


def build(cfg, typed, as_of: dt.date, members=None):
    res = compute(cfg, typed, as_of)
    letters, skipped = gk_letters(cfg, res, typed["members.csv"] if members is None else members, as_of)
    return res, letters, skipped


@pytest.fixture(scope="module")
def demo(demo_inputs):
    cfg, typed = demo_inputs
    return (cfg, typed, *build(cfg, typed, cfg.event.as_of))


PRELIM_DAY = dt.date(2020, 6, 1)


@pytest.fixture(scope="module")
def prelim(demo_inputs):
    """1 June 2020: the preliminaries in play (only they are published)."""
    cfg, typed = demo_inputs
    t = state(typed, PRELIM_DAY, ("preliminary",))
    return (cfg, t, *build(cfg, t, PRELIM_DAY))


def emails(typed) -> dict[str, str]:
    return dict(zip(typed["members.csv"]["member_id"], typed["members.csv"]["email"], strict=True))


def by_kind(letters) -> dict[str, list]:
    out: dict[str, list] = {}
    for x in letters:
        out.setdefault(x.kind, []).append(x)
    return out


def text(letter) -> str:
    return text_body(letter, site_url="https://results.example.org/gk/", signature="The office")


# --- who gets a letter ---------------------------------------------------------------------

def test_complete_demo_letters_by_kind_match_the_rulebooks_frames(demo):
    cfg, typed, res, letters, skipped = demo
    kinds = Counter(x.kind for x in letters)
    assert skipped == []
    # every non-qualifier of its last stage (133 preliminaries, 42 semifinals) hears its result
    assert kinds["member-qualification"] == res.qualifiers.filter(~pl.col("qualified")).height == 175
    assert kinds["member-award"] == res.awards["entry_id"].n_unique() == 188
    assert kinds["member-prize"] == res.prizes.height == 10
    assert kinds["member-carried-forward"] == res.carried_forward.height == 6
    assert kinds["member-assignment"] == 0  # every section is complete
    assert kinds["director-review"] == 1
    # 12 rulings, each to the player who overstepped and to the opponent: 24, less the 6 whose
    # recipient has since played a later stage (only the current stage is news)
    assert kinds["member-overstep"] == 18
    assert kinds["member-rule-11"] == res.director_review.filter(pl.col("rule") == "11").height == 1
    mail = emails(typed)
    for x in letters:
        if x.kind != "director-review":
            assert x.to_email == mail[x.meta["member_id"]]
            if "entry_id" in x.meta:
                assert res.entries.filter(pl.col("entry_id") == x.meta["entry_id"])["member_id"][0] == \
                    x.meta["member_id"]


def test_every_entry_in_a_published_section_gets_its_assignment_once(prelim):
    cfg, typed, res, letters, skipped = prelim
    assign = by_kind(letters)["member-assignment"]
    placed = typed["sections.csv"]["entry_id"].to_list()
    assert sorted(x.meta["entry_id"] for x in assign) == sorted(placed) and len(placed) == 189
    assert all(x.key.endswith("-preliminary-assignment") for x in assign)


def test_keys_are_lower_case_unique_and_name_member_entry_and_stage(demo, prelim):
    for *_, letters, _ in (demo, prelim):
        keys = [x.key for x in letters]
        assert len(keys) == len(set(keys))
        assert all(KEY.fullmatch(k) and k == k.lower() for k in keys)
    one = next(x for x in prelim[3] if x.meta.get("entry_id") == "GK19-0001" and x.kind == "member-assignment")
    assert one.key == "member-12000009-gk19-0001-preliminary-assignment"


# --- each kind, read as its recipient reads it ------------------------------------------------

def test_assignment_lists_the_six_opponents_colours_and_addresses_of_the_section(prelim):
    cfg, typed, res, letters, _ = prelim
    mail = emails(typed)
    member_of = dict(zip(res.entries["entry_id"], res.entries["member_id"], strict=True))
    sections = typed["sections.csv"]
    for x in by_kind(letters)["member-assignment"]:
        e, sec = x.meta["entry_id"], x.meta["section"]
        header, *rows = x.blocks[0].table
        assert header == ("Your colour", "Opponent", "Member", "Email")
        mates = set(sections.filter(pl.col("section") == sec)["entry_id"]) - {e}
        # the addresses are those of the section's other members, no one else's
        assert {r[2] for r in rows} == {member_of[o] for o in mates}
        assert all(r[3] == mail[r[2]] for r in rows)
        sched = res.schedule.filter((pl.col("section") == sec) & (pl.col("stage") == "preliminary"))
        whites = set(sched.filter(pl.col("white") == e)["black"].map_elements(member_of.get, pl.String))
        assert {r[2] for r in rows if r[0] == "White"} == whites
        assert [r[0] for r in rows].count("White") == 3 and [r[0] for r in rows].count("Black") == 3
    gk1 = next(x for x in letters if x.key == "member-12000009-gk19-0001-preliminary-assignment")
    assert gk1.lead == ("Your entry GK19-0001 is placed in preliminaries section P05 of 7 players: 6 games, "
                        "3 with White and 3 with Black (rule 2).")
    assert ("The section's page", "sections/preliminary-P05.html") in gk1.links


def test_qualification_gives_the_score_and_basis_of_qualifiers_csv(demo):
    cfg, typed, res, letters, _ = demo
    q = {r["entry_id"]: r for r in res.qualifiers.iter_rows(named=True)}
    for x in by_kind(letters)["member-qualification"]:
        r = q[x.meta["entry_id"]]
        assert x.meta["stage"] == r["stage"]
        assert f"Basis: {r['basis']}." in x.blocks[0].lines
        assert len(x.blocks[1].table) == 1 + 6
    # GK19-0001 (Jessica Young), preliminary P05: 2 points, below 4½
    gk1 = next(x for x in letters if x.key == "member-12000009-gk19-0001-preliminary-qualification")
    assert q["GK19-0001"]["score"] == 2.0
    assert gk1.lead == ("Your entry GK19-0001 scored 2 in preliminaries section P05 and does not qualify for the "
                        "semifinals (rule 3).")
    points = {"won": 1.0, "draw": 0.5, "lost": 0.0, "won by forfeit": 1.0, "lost by forfeit": 0.0}
    assert sum(points[row[3]] for row in gk1.blocks[1].table[1:]) == 2.0


def test_qualifier_letter_says_the_next_stage_until_its_section_is_published(demo_inputs):
    # 1 March 2021 with only the preliminaries published: qualifiers wait for their semifinal
    cfg, typed = demo_inputs
    day = dt.date(2021, 3, 1)
    t = state(typed, day, ("preliminary",))
    res, letters, _ = build(cfg, t, day)
    quals = {x.meta["entry_id"]: x for x in by_kind(letters)["member-qualification"]}
    yes = res.qualifiers.filter(pl.col("qualified").fill_null(False))["entry_id"].to_list()
    assert yes and all("qualifies for the semifinals (rule 3)" in quals[e].lead for e in yes)
    # Decision: a 4-pointer who may still fill the last section gets no letter yet
    pending = res.qualifiers.filter(pl.col("qualified").is_null())["entry_id"].to_list()
    assert len(pending) == 2 and not set(pending) & set(quals)
    assert len(quals) == res.qualifiers.filter(pl.col("qualified").is_not_null()).height


def test_only_the_current_stage_is_news(demo):
    # Decision: letters of an entry's earlier stages are not written again
    cfg, typed, res, letters, _ = demo
    semis = set(res.crosstables.filter(pl.col("stage") == "semifinal")["entry_id"])
    finals = set(res.crosstables.filter(pl.col("stage") == "final")["entry_id"])
    for x in letters:
        e, st = x.meta.get("entry_id"), x.meta.get("stage")
        if st and e in semis:
            assert st != "preliminary", x.key
        if st and e in finals:
            assert st == "final", x.key
    assert not [x for x in letters if x.kind == "member-qualification" and x.meta["entry_id"] in finals]


def test_overstep_rulings_reach_both_players_with_the_result_of_rulings_csv(demo):
    cfg, typed, res, letters, _ = demo
    final = res.rulings.filter(pl.col("stage") == "final")
    got = [x for x in by_kind(letters)["member-overstep"] if x.meta["stage"] == "final"]
    assert len(got) == 2 * final.height == 4
    # GK19-0179 (final F01) overstepped twice: loss of game each time (rule 12.2)
    first = next(x for x in got if x.meta["entry_id"] == "GK19-0179" and "gk19-0191" in x.key)
    assert first.key == "member-12004820-gk19-0179-final-overstep-gk19-0179-gk19-0191-20241201"
    assert "loss of game (rule 12.2)" in first.lead and "reported 1 December 2024" in first.lead
    r = final.filter(pl.col("opponent") == "GK19-0191").row(0, named=True)
    assert r["result_after"] == "1-0" and f"a loss for you: {r['result_after']}" in first.blocks[0].lines[0]
    opp = next(x for x in got if x.meta["entry_id"] == "GK19-0191")
    assert "a win for you" in opp.blocks[0].lines[0]


def test_forfeits_and_the_rule_11_case_name_the_games_of_the_scorecard(demo):
    cfg, typed, res, letters, _ = demo
    r11 = by_kind(letters)["member-rule-11"]
    assert [x.meta["entry_id"] for x in r11] == ["GK19-0070"]
    lost = res.scorecard.filter((pl.col("entry_id") == "GK19-0070") & (pl.col("kind") == "forfeit_loss"))
    assert len(r11[0].blocks[0].table) - 1 == lost.height == 2
    assert "to 2 opponents in preliminaries section P04" in r11[0].lead
    f = [x for x in by_kind(letters)["member-forfeit"] if x.meta["entry_id"] == "GK19-0070"]
    assert {x.meta["opponent"] for x in f} == set(lost["opponent"])


def test_framing_certificate_is_attached_as_the_flow_publishes_it(demo):
    cfg, typed, res, letters, _ = demo
    people = People.build(res.entries, typed["members.csv"], res.standings)
    pub = Publication(Path("unused"), ctx=event_context(cfg, cfg.event.as_of))
    gk_awards.certificates(pub, cfg, cfg.table(GKRules), res, people, cfg.event.as_of)
    framing = set(res.awards.filter(pl.col("award") == "framing_certificate")["entry_id"])
    award = by_kind(letters)["member-award"]
    attached = {a for x in award for a in x.attachments}
    assert attached == {certificate_file(e) for e in framing} == set(pub.pdfs) and len(framing) == 42
    gift = next(x for x in award if x.meta["entry_id"] == "GK19-0001")
    assert gift.attachments == () and "Gift certificate of $7.00" in gift.blocks[0].lines[0]
    champ = next(x for x in award if x.meta["entry_id"] == res.prizes["entry_id"][0])
    assert "golden knights champion: title and plaque" in champ.lead and "golden knights pin" in champ.lead


def test_prize_letter_gives_the_amount_of_prizes_csv(demo):
    cfg, typed, res, letters, _ = demo
    amounts = dict(zip(res.prizes["entry_id"], res.prizes["amount"], strict=True))
    for x in by_kind(letters)["member-prize"]:
        assert x.meta["amount"] == str(amounts[x.meta["entry_id"]])
    second = next(x for x in letters if x.kind == "member-prize" and x.meta["entry_id"] == "GK19-0144")
    # 189 entries assigned: $500 x 189 / 200 = $472.50 (rule 5)
    assert "wins 2nd place" in second.lead and "$472.50" in second.lead


def test_shared_prize_letter_says_how_the_prize_was_split(demo):
    # the 2nd takes the 1st's weighted points: places 1-2 shared, $756.00 + $472.50 = $1,228.50,
    # $614.25 each (rule 6)
    cfg, typed, res, _, _ = demo
    st = res.standings
    order = st.filter(pl.col("prize_eligible")).sort("weighted_points", "entry_id",
                                                     descending=[True, False])["entry_id"].to_list()
    top = st.filter(pl.col("entry_id") == order[0])["weighted_points"][0]
    st = st.with_columns(weighted_points=pl.when(pl.col("entry_id") == order[1]).then(pl.lit(top))
                         .otherwise(pl.col("weighted_points")))
    wc = st.with_columns(weighted_cents=(pl.col("weighted_points") * 100).round().cast(pl.Int64))
    rules = cfg.table(GKRules)
    tied = dataclasses.replace(res, standings=st, prizes=rule_5_prizes(rules, wc, res.entries_assigned),
                               prize_split=rule_6_prize_split(rules, wc, res.entries_assigned))
    letters, _ = gk_letters(cfg, tied, typed["members.csv"], cfg.event.as_of)
    for e in order[:2]:
        x = next(x for x in letters if x.kind == "member-prize" and x.meta["entry_id"] == e)
        assert x.meta["amount"] == "614.25" and "$614.25 (rules 5, 6)" in x.lead
        assert any("share the prizes of places 1–2: $756.00 + $472.50 = $1,228.50, $614.25 each" in ln
                   for ln in x.blocks[0].lines)


def test_carried_forward_letter_gives_the_rule_9_reason(demo):
    cfg, typed, res, letters, _ = demo
    cf = {x.meta["entry_id"]: x for x in by_kind(letters)["member-carried-forward"]}
    assert set(cf) == set(res.carried_forward["entry_id"])
    reason = res.entries.filter(pl.col("entry_id") == "GK19-0010")["reason"][0]
    assert cf["GK19-0010"].key == "member-12000009-gk19-0010-carried-forward"
    assert f"Why: {reason}." in cf["GK19-0010"].blocks[0].lines


def test_membership_letter_to_each_flagged_member_keyed_by_expiry_without_days_left(prelim):
    cfg, typed, res, letters, _ = prelim
    flags = res.membership_flags
    got = {x.meta["member_id"]: x for x in by_kind(letters)["member-membership"]}
    assert set(got) == set(flags["member_id"]) and len(got) == 16
    for r in flags.iter_rows(named=True):
        x = got[r["member_id"]]
        assert x.key == f"member-{r['member_id']}-membership-{r['membership_expires']:%Y-%m-%d}"
        assert ("expired on" if r["flag"] == "lapsed" else "expires on") in x.lead
        assert str(r["days_left"]) not in text(x).replace(str(r["membership_expires"].year), "")


# --- the director ----------------------------------------------------------------------------

def test_director_letter_lists_the_rule_11_and_12_cases_to_every_office_recipient(demo):
    cfg, typed, res, letters, _ = demo
    office = [r for r in cfg.publish.recipients if r.role == "office"]
    d = by_kind(letters)["director-review"]
    assert [x.to_email for x in d] == [r.email for r in office] == ["ccd@uschess.example"]
    assert d[0].key == f"director-{file_part('ccd@uschess.example', lower=True)}-review"
    rows = d[0].blocks[0].table[1:]
    rv = res.director_review.filter(pl.col("rule").is_in(["11", "12"]))
    assert len(rows) == rv.height == 13
    assert sorted(r[5] for r in rows) == sorted(rv["detail"])
    assert d[0].lead.startswith("1 forfeit case under rule 11 and 12 time-overstep rulings")


def test_a_removed_overstep_changes_the_directors_letter_and_only_the_letters_it_concerns(demo):
    cfg, typed, res, letters, _ = demo
    ov = typed["time_oversteps.csv"]
    fewer = {**typed, "time_oversteps.csv": ov.filter(pl.col("entry_id") != "GK19-0179")}
    _, after, _ = build(cfg, fewer, cfg.event.as_of)
    before = {x.key: x for x in letters}
    now = {x.key: x for x in after}
    gone = set(before) - set(now)
    assert all("overstep-gk19-0179" in k for k in gone) and len(gone) == 4
    changed = {k for k in now if k in before and now[k] != before[k]}
    # the two losses of game are now the recorded results: no other letter changes
    assert changed == {f"director-{file_part('ccd@uschess.example', lower=True)}-review"}
    assert len(now[next(iter(changed))].blocks[0].table) == len(before[next(iter(changed))].blocks[0].table) - 2


# --- stable from run to run ------------------------------------------------------------------

def test_same_inputs_a_later_day_give_identical_letters(demo_inputs, demo):
    cfg, typed, res, letters, _ = demo
    _, again, _ = build(cfg, typed, cfg.event.as_of + dt.timedelta(days=30))
    assert again == letters


def test_a_later_day_mid_event_keeps_every_letter_unless_a_membership_lapsed(demo_inputs, prelim):
    cfg, t, res, letters, _ = prelim
    later = PRELIM_DAY + dt.timedelta(days=1)
    res2, again, _ = build(cfg, t, later)
    before = {x.key: x for x in letters}
    lapsed_now = set(res2.membership_flags.filter(pl.col("flag") == "lapsed")["member_id"]) - set(
        res.membership_flags.filter(pl.col("flag") == "lapsed")["member_id"])
    for x in again:
        if x.key in before and x.meta.get("member_id") not in lapsed_now:
            assert x == before[x.key]
    assert set(before) <= {x.key for x in again}


def test_a_changed_result_changes_only_the_two_players_letters(demo):
    cfg, typed, res, letters, _ = demo
    # a decisive preliminary game between two players who scored 2½ or less: made a draw, both
    # stay below 4 (neither qualifies either way)
    pq = res.qualifiers.filter(pl.col("stage") == "preliminary")
    scores = dict(zip(pq["entry_id"], pq["score"], strict=True))
    g = typed["games.csv"].filter((pl.col("stage") == "preliminary") & pl.col("result").is_in(["1-0", "0-1"]))
    g = g.filter(pl.col("white").replace_strict(scores, default=9.0) <= 2.5,
                 pl.col("black").replace_strict(scores, default=9.0) <= 2.5)
    line = g["line"][0]
    w, b = g["white"][0], g["black"][0]
    changed_games = typed["games.csv"].with_columns(
        result=pl.when(pl.col("line") == line).then(pl.lit("1/2-1/2")).otherwise(pl.col("result")))
    _, after, _ = build(cfg, {**typed, "games.csv": changed_games}, cfg.event.as_of)
    before = {x.key: x for x in letters}
    now = {x.key: x for x in after}
    assert set(now) == set(before)
    changed = {k for k in now if now[k] != before[k]}
    assert changed == {x.key for x in letters if x.kind == "member-qualification" and x.meta["entry_id"] in (w, b)}
    assert len(changed) == 2


# --- addresses, skipped recipients, rendering ------------------------------------------------

@pytest.mark.parametrize(("email", "ok"), [
    ("jessica.young0@example.org", True), ("", False), (None, False), ("a@b", False),
    ("a@@b.org", False), ("a b@c.org", False), ("a@b.org\nBcc: x@y.org", False), ("<a@b.org>", False),
    ("a@b.org,c@d.org", False), ("@b.org", False), ("a@.org", False), ("a@b.", False)])
def test_address_problem(email, ok):
    assert (address_problem(email) == "") is ok


def test_members_without_a_valid_address_are_skipped_with_the_reason(prelim):
    cfg, typed, res, letters, _ = prelim
    members = typed["members.csv"].with_columns(email=pl.when(pl.col("member_id") == "12000009").then(pl.lit(""))
                                                .when(pl.col("member_id") == "12000055").then(pl.lit("mark@flores"))
                                                .otherwise(pl.col("email")))
    # (a listed recipient's address is checked when event.toml is read: tests/rulebook/test_config.py)
    got, skipped = gk_letters(cfg, res, members, PRELIM_DAY)
    who = dict(skipped)
    assert set(who) == {"Jessica Young (member 12000009)", "Mark Flores (member 12000055)"}
    n = sum(1 for x in letters if x.key.startswith("member-12000009-"))
    assert who["Jessica Young (member 12000009)"] == f"no email address: {n} letters not written"
    assert "has no domain such as" in who["Mark Flores (member 12000055)"]
    assert not [x for x in got if x.key.startswith(("member-12000009-", "member-12000055-"))]
    assert len(got) == len(letters) - n - sum(1 for x in letters if x.key.startswith("member-12000055-"))


def test_names_with_markup_are_escaped_in_the_html_body(prelim):
    cfg, typed, res, _, _ = prelim
    members = typed["members.csv"].with_columns(name=pl.when(pl.col("member_id") == "12000009")
                                                .then(pl.lit('<b>Jess & "Co"</b>')).otherwise(pl.col("name")))
    got, _ = gk_letters(cfg, res, members, PRELIM_DAY)
    x = next(x for x in got if x.key == "member-12000009-gk19-0001-preliminary-assignment")
    html = html_body(x, site_url="", signature="s", subject=x.subject)
    assert "<b>Jess" not in html and "&lt;b&gt;Jess &amp; " in html


def test_one_letter_of_each_kind_renders_as_plain_text(demo, prelim):
    seen = {}
    for *_, letters, _ in (demo, prelim):
        for x in letters:
            seen.setdefault(x.kind, x)
    assert set(seen) == {"member-assignment", "member-forfeit", "member-rule-11", "member-overstep",
                         "member-qualification", "member-membership", "member-award", "member-prize",
                         "member-carried-forward", "member-entry-rejected", "director-review"}
    for x in seen.values():
        body = text(x)
        assert body.startswith(f"Dear {x.to_name},\n\n{x.lead}\n")
        assert "https://results.example.org/gk/" in body  # links shown with a site_url
        assert "as of" not in body


def test_key_part_keeps_different_ids_apart():
    def key_part(text):
        return file_part(text, lower=True)

    assert key_part("GK19-0001") == "gk19-0001"
    assert key_part("a.b") != key_part("a_b") != key_part("a b")
    assert KEY.fullmatch("member-" + key_part("Ünïcode id/1"))


def test_assignment_letters_do_not_change_as_games_finish_or_ratings_change(demo_inputs, prelim):
    # Decision: the assignment says what the section is, never its results
    cfg, t, res, letters, _ = prelim
    day = PRELIM_DAY + dt.timedelta(days=60)
    _, typed = demo_inputs
    later = state(typed, day, ("preliminary",))
    later["members.csv"] = later["members.csv"].with_columns(rating=pl.col("rating") + 25)
    res2, again, _ = build(cfg, later, day)
    assert res2.games["result"].is_not_null().sum() > res.games["result"].is_not_null().sum()
    a1 = {x.key: x for x in letters if x.kind == "member-assignment"}
    a2 = {x.key: x for x in again if x.kind == "member-assignment"}
    assert a1 == a2 and len(a1) == 189


def test_a_member_whose_entry_is_rejected_is_told_the_reason_and_its_rule(demo):
    _, typed, res, letters, _ = demo
    rejected = res.entries.filter(pl.col("status") == "rejected")
    members = set(typed["members.csv"]["member_id"])
    told = {x.meta["entry_id"]: x for x in letters if x.kind == "member-entry-rejected"}
    expected = {r["entry_id"] for r in rejected.iter_rows(named=True) if r["member_id"] in members}
    assert len(expected) >= 10 and set(told) == expected
    for r in rejected.iter_rows(named=True):
        if r["entry_id"] in told:
            x = told[r["entry_id"]]
            assert x.key == f"member-{r['member_id']}-{r['entry_id'].lower()}-entry-rejected"
            assert r["reason"] in x.lead and re.search(r"\(rule \d+\)", x.lead)
            assert x.subject == f"Your entry {r['entry_id']} is not accepted"
            assert "rule 7" in text(x)
