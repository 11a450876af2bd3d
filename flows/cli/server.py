"""``chessfed server`` (``make server``) — the office's Prefect server on PostgreSQL, the
database Prefect recommends where several processes write (workers, a Dask cluster): a local
PostgreSQL cluster in a folder of its own (Debian's ``postgresql``: ``initdb`` once, then
``pg_ctl start`` on 127.0.0.1), its ``prefect`` database with the ``pg_trgm`` extension Prefect
asks for, and ``prefect server start`` on it. Ctrl-C or SIGTERM stops both.

    make server                                   # or: chessfed server --folder .prefect/postgres
    export PREFECT_API_URL=http://127.0.0.1:4200/api
    chessfed deploy inputs --out outputs
    prefect worker start --pool chessfed          # one or more, on this machine or others

Everything goes through the programs' documented command lines; the database is reached with
Prefect's documented setting ``PREFECT_SERVER_DATABASE_CONNECTION_URL``. PostgreSQL refuses to
run as root: run as root (CI), the cluster's folder is given to the ``postgres`` user Debian's
package creates and its programs run as that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DATABASE = "prefect"


def pg_bin(program: str) -> str:
    """A PostgreSQL server program (``initdb``, ``pg_ctl``, ``postgres``): on the PATH, else in
    the newest of Debian's ``/usr/lib/postgresql/<version>/bin``."""
    found = shutil.which(program)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    for folder in reversed(versions):
        if (folder / program).exists():
            return str(folder / program)
    raise SystemExit(f"chessfed server: PostgreSQL's {program} not found: install Debian's "
                     "postgresql (apt-get install postgresql)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def as_owner(cmd: list[str]) -> list[str]:
    """``cmd`` as the ``postgres`` user when this process is root (PostgreSQL will not run as
    root), else as it is."""
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@contextlib.contextmanager
def postgres(folder: Path, port: int | None = None) -> Iterator[str]:
    """A PostgreSQL cluster in ``folder`` (created on first use) running on 127.0.0.1:``port``
    (a free one by default) while the block runs; yields Prefect's connection URL to its
    ``prefect`` database (created, with ``pg_trgm``, on first use)."""
    folder = Path(folder).resolve()
    data, sockets = folder / "data", folder / "sockets"
    folder.mkdir(parents=True, exist_ok=True)
    sockets.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        if subprocess.run(as_owner(["test", "-x", str(folder)])).returncode != 0:
            raise SystemExit(f"chessfed server: PostgreSQL runs as the postgres user, who cannot "
                             f"reach {folder} (a parent folder is closed to it): choose another "
                             "--folder")
        owner = pwd.getpwnam("postgres")
        for path in (folder, sockets, *([data] if data.exists() else [])):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    if not (data / "PG_VERSION").exists():
        subprocess.run(as_owner([pg_bin("initdb"), "-D", str(data), "-U", DATABASE,
                                 "--auth=trust", "-E", "UTF8", "--no-instructions"]),
                       check=True, stdout=subprocess.DEVNULL)
    port = port or free_port()
    subprocess.run(as_owner([pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "postgres.log"),
                             "-w", "-o", f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1",
                             "start"]), check=True, stdout=subprocess.DEVNULL)
    try:
        psql = [pg_bin("psql"), "-h", "127.0.0.1", "-p", str(port), "-U", DATABASE, "-q", "-A",
                "-t", "-d", "postgres"]
        have = subprocess.run([*psql, "-c", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"],
                              check=True, capture_output=True, text=True).stdout.strip()
        if have != "1":
            subprocess.run([*psql, "-c", f"CREATE DATABASE {DATABASE}"], check=True)
        psql[-1] = DATABASE
        subprocess.run([*psql, "-c", "CREATE EXTENSION IF NOT EXISTS pg_trgm"], check=True)
        yield f"postgresql+asyncpg://{DATABASE}@127.0.0.1:{port}/{DATABASE}"
    finally:
        subprocess.run(as_owner([pg_bin("pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def serve(folder: Path, host: str, port: int, db_port: int | None) -> int:
    """PostgreSQL, then ``prefect server start`` on it, until SIGTERM or Ctrl-C (both stop the
    server, then the database). Exit status: the server's."""
    with postgres(folder, db_port) as url:
        env = {**os.environ, "PREFECT_SERVER_DATABASE_CONNECTION_URL": url}
        print(f"chessfed server: PostgreSQL in {folder} ({url.rsplit('@', 1)[1]}); Prefect's "
              f"server at http://{host}:{port}/api", flush=True)
        server = subprocess.Popen([sys.executable, "-m", "prefect", "server", "start",
                                   "--host", host, "--port", str(port)], env=env)

        def stop(signum: int, _frame: object) -> None:
            server.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        try:
            while True:
                try:
                    return server.wait()
                except KeyboardInterrupt:
                    server.send_signal(signal.SIGTERM)
                    time.sleep(0.1)
        finally:
            if server.poll() is None:
                server.kill()


def add_parser(sub: Any) -> None:  # argparse's subparsers (add_subparsers())
    p = sub.add_parser("server", help="the office's Prefect server on a local PostgreSQL "
                       "(Debian's postgresql) in a folder of its own")
    p.add_argument("--folder", default=".prefect/postgres",
                   help="the PostgreSQL cluster's folder (created on first use)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=4200, help="Prefect's API port")
    p.add_argument("--db-port", type=int, default=None, help="PostgreSQL's port (default: a free one)")
    p.set_defaults(func=lambda a: serve(Path(a.folder), a.host, a.port, a.db_port))
