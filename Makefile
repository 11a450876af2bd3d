# chessfed — the two commands a new machine needs are `make demo` and `make test`.
PY       ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
export PREFECT_HOME := $(CURDIR)/.prefect
export PREFECT_SERVER_ANALYTICS_ENABLED := false

.PHONY: demo test test-fast test-shuffled docs cli-reference bench bench-site bench-season bench-event bench-team bench-norms bench-rating-list bench-series lint lock clean install demo-inputs server

$(BIN)/uv:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv

# Installs the exact versions in requirements.lock (made by `make lock`), then the project itself.
# --compile-bytecode: the libraries' bytecode is written once here; where PYTHONDONTWRITEBYTECODE
# is set Python would otherwise compile Prefect's server again at every start (about 6 s of the
# ephemeral server's start measured on this machine).
# The project's install also compiles the Dutch engine's matching core (setup.py:
# transforms/fide/dutch/cmatching.c, gcc and Python's headers; nothing downloaded), and creates
# Prefect's local database (.prefect/prefect.db; its migrations take ~11 s of one core, which
# the first `chessfed run` would otherwise spend before any event could start).
$(VENV)/.installed: requirements.lock pyproject.toml setup.py transforms/fide/dutch/cmatching.c | $(BIN)/uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/python -c "import transforms.fide.dutch.cmatching"  # the compiled core was built
	$(BIN)/prefect server database upgrade -y >/dev/null  # .prefect/prefect.db, see above
	touch $@

# (bytecode compiled ahead, so that `chessfed pair`, called once per round, starts fast even
# where PYTHONDONTWRITEBYTECODE keeps Python from caching it)
install: $(VENV)/.installed
	@$(BIN)/python -m compileall -q flows transforms

demo: install
	$(BIN)/chessfed run inputs --out outputs || [ $$? -eq 1 ]  # 1: published; the demo's inputs have rejected rows on purpose

# -rs: a skipped test says why (the browser tests skip where Chromium is not installed;
# CHESSFED_REQUIRE_BROWSER=1, as .ci/run sets it, makes that a failure). --durations=25: the
# slowest tests and fixtures at the end, where keeping `make test` near ten minutes starts.
# -n 2 --dist loadfile (pytest-xdist): two worker processes, each test file whole on one of
# them (a file's module fixtures built once); measured on this 2-core machine: 14 min → 10 min,
# as half the time is spent waiting on Prefect servers, browsers and renderer processes.
# TEST_WORKERS=0 runs in one process (a debugger, a print).
TEST_WORKERS ?= 2
test: install
	$(BIN)/python -m pytest -rs --durations=25 -n $(TEST_WORKERS) --dist loadfile

# The tiers (tests/conftest.py TIERS; markers in pyproject.toml): the rulebook and the command
# line, without the slow ones — under a minute. `make test` runs every tier. --tiers: the other
# tiers' modules are not even imported; PYTHONDONTWRITEBYTECODE emptied: pytest keeps the test
# modules it rewrote in tests/__pycache__ (git-ignored) instead of rewriting them every run.
test-fast: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -rs -n $(TEST_WORKERS) --dist loadfile --tiers rulebook,cli -m "(rulebook or cli) and not slow"

# Every test in a random order (pytest-randomly; it prints the seed: SEED=N repeats that order).
test-shuffled: install
	$(BIN)/python -m pytest -rs -p randomly $(if $(SEED),--randomly-seed=$(SEED))

# ENGINE=/path/to/bbpPairings.exe (2025 rules) ENGINE_2017=… (2017 rules): pairs the same files
# side by side up to 1,000 players (times, ratio, identical or not).
bench: install
	$(BIN)/python -m flows.devtools.bench $(if $(ENGINE),--engine $(ENGINE)) $(if $(ENGINE_2017),--engine-2017 $(ENGINE_2017))

# What a rerun after one new round renders again (National Junior demo, rounds 1-9, then 10).
bench-site: install
	$(BIN)/python -m flows.devtools.bench_site

# A generated season (50 events: Swiss 100-1,000 players, Golden Knights 200-2,000 entries) run
# one event after another, side by side and on a Dask LocalCluster (SCALE=0.2 for a quick one).
SCALE ?= 1.0
bench-season: install
	$(BIN)/python -m flows.devtools.bench_season --scale $(SCALE)

# One generated Swiss (PLAYERS, ROUNDS, HISTORY dutch|greedy) run three times: first, nothing changed, one result changed
# (wall, peak memory, files written again, largest public page; issue 26's goals).
PLAYERS ?= 1000
ROUNDS ?= 9
HISTORY ?= dutch
bench-event: install
	$(BIN)/python -m flows.devtools.bench_event --players $(PLAYERS) --rounds $(ROUNDS) --history $(HISTORY)

# A generated team Swiss (TEAMS of 4 boards, 11 rounds, FIDE C.04.6 type A) paired round by round
# as `chessfed pair --team` does; GACRUX=1 times FIDE TEC's Gacrux beside it (GACRUX_PYTHON: an
# interpreter with gacrux==1.11.65, outside the project) and compares the pairings.
TEAMS ?= 200
bench-team: install
	$(BIN)/python -m flows.devtools.bench_team --teams $(TEAMS) $(if $(GACRUX),--gacrux)

# FIDE B.01 title norms of a generated open (PLAYERS_NORMS players, 11 rounds): after the last
# round, and after round 10 with the forecast of the last round.
PLAYERS_NORMS ?= 300
bench-norms: install
	$(BIN)/python -m flows.devtools.bench_norms --players $(PLAYERS_NORMS) --rounds 11

# A series over 30 generated Swiss events of 60 players: cold, nothing changed, one event changed.
bench-series: install
	$(BIN)/python -m flows.devtools.bench_series --events 30 --players 60

# Reading a whole FIDE rating list: a generated combined TXT list of RL_PLAYERS players and an XML
# list of 200,000 (FIDE's October 2026 combined list: about 1.93 million players).
RL_PLAYERS ?= 1000000
bench-rating-list: install
	$(BIN)/python -m flows.devtools.bench_rating_list --players $(RL_PLAYERS) --xml 200000

# The office's Prefect server on PostgreSQL (Debian's postgresql; the cluster in .prefect/postgres,
# Prefect's API at http://127.0.0.1:4200/api): scheduled operation, flows/cli/server.py.
server: install
	$(BIN)/chessfed server --folder .prefect/postgres

# ruff, then mypy ([tool.mypy] in pyproject.toml: strict, on transforms/ for now)
lint: install
	$(BIN)/ruff check flows transforms tests
	$(BIN)/python -m mypy

# The manual (docs/, mkdocs.yml) into build/docs/; --strict: any warning (a broken link, a page
# missing from the nav, a snippet not found) fails the build. Nothing is fetched.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "the manual: build/docs/index.html"

# Regenerates the manual's command line page from the parsers (tests/cli/test_manual.py checks it).
cli-reference: install
	$(BIN)/python -m flows.devtools.cli_reference --out docs/cli.md

# Regenerates the committed demo inputs (deterministic, seeded) and the input reference
# (inputs/README.md, generated from the schemas and the regulations' vocabularies).
demo-inputs: install
	$(BIN)/python -m flows.devtools.demo_inputs inputs
	$(BIN)/chessfed input-reference --out inputs/README.md

lock: | $(BIN)/uv
	$(BIN)/uv pip compile --quiet --extra test --extra docs pyproject.toml -o requirements.lock

clean:
	rm -rf $(VENV) .prefect outputs/*/ outputs/.chessfed outputs/index.html outputs/run.json build transforms/fide/dutch/cmatching*.so
