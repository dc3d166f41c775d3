# The README's two commands: `make run` (set up + main job) and `make test` (set up + tests);
# `make docs` builds the documentation site into site/ (warnings are errors, links checked).
# `make reproduce-models` retrains the shipped models in the locked environment (an hour or more).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed  # every extra: tests, docs, the web page, Ray, OpenSpiel, recipes
TRAIN_STAMP := $(VENV)/.installed-train  # what the main job needs: the train extra

.PHONY: run test test-full lint bench docs setup clean reproduce-models

setup: $(STAMP)

# setuptools' "Editable installation" notice (information only, printed for every project whose
# folders map to packages, as envs/ -> huerta.envs) is the one message of the set-up silenced
$(TRAIN_STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "torch==2.13.0"
	PYTHONWARNINGS="ignore:Editable installation" $(PIP) install --quiet -e ".[train]"
	touch $(TRAIN_STAMP)

$(STAMP): $(TRAIN_STAMP)
	PYTHONWARNINGS="ignore:Editable installation" $(PIP) install --quiet -e ".[train,dev,docs,web,ray,openspiel,recipes]"
	touch $(STAMP)

# the main job needs only the train extra: `make run` installs no more, to start in minutes
run: $(TRAIN_STAMP)
	$(VENV)/bin/huerta main

# the notebooks' cells get 30 minutes each: a loaded 2-core machine must never fail them on time
# (each cell's work is small; speed lives in benchmarks, not in tests). The slowest tests are
# listed at the end, so that a CI log says what to cut when the run grows (DESIGN.md, Tests).
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -q -n 2 --durations=25 tests
	$(PY) -m pytest -q --nbmake --nbmake-timeout=1800 notebooks

test-full: $(STAMP)
	HUERTA_FULL=1 $(PY) -m pytest -q -n 2 tests

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet
	$(PY) scripts/check_site_links.py site

bench: $(STAMP)
	$(VENV)/bin/huerta bench

# the shipped models retrained from their recorded commands and seeds on one thread, in the
# environment requirements/lock.txt pins (torch first: the CPU build), and compared with the
# shipped files (docs/training.md, "Rebuilding the shipped models"); ARGS go to the script,
# e.g. ARGS="--game finca" or ARGS=--dry-run
REPRODUCE_VENV ?= .venv-reproduce
REPRODUCE_PY := $(REPRODUCE_VENV)/bin/python
reproduce-models: requirements/lock.txt
	test -x $(REPRODUCE_PY) || python3 -m venv $(REPRODUCE_VENV)
	$(REPRODUCE_PY) -m pip install --quiet --upgrade pip
	$(REPRODUCE_PY) -m pip install --quiet "torch==2.13.0"
	$(REPRODUCE_PY) -m pip install --quiet -r requirements/lock.txt
	PYTHONWARNINGS="ignore:Editable installation" $(REPRODUCE_PY) -m pip install --quiet --no-deps -e .
	$(REPRODUCE_PY) scripts/reproduce_models.py $(ARGS)

clean:
	rm -rf $(VENV) $(REPRODUCE_VENV) build dist site *.egg-info
