# The README's two commands: `make run` (set up + main job) and `make test` (set up + tests);
# `make docs` builds the documentation site into site/ (warnings are errors, links checked).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: run test test-full lint bench docs setup clean

setup: $(STAMP)

# setuptools' "Editable installation" notice (information only, printed for every project whose
# folders map to packages, as envs/ -> huerta.envs) is the one message of the set-up silenced
$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "torch==2.13.0"
	PYTHONWARNINGS="ignore:Editable installation" $(PIP) install --quiet -e ".[train,dev,docs,web,ray,openspiel,recipes]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/huerta main

# the notebooks' cells get 30 minutes each: a loaded 2-core machine must never fail them on time
# (each cell's work is small; speed lives in benchmarks, not in tests)
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -q -n 2 tests
	$(PY) -m pytest -q --nbmake --nbmake-timeout=1800 notebooks

test-full: $(STAMP)
	HUERTA_FULL=1 $(PY) -m pytest -q -n 2 tests

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet
	$(PY) scripts/check_site_links.py site

bench: $(STAMP)
	$(VENV)/bin/huerta bench

clean:
	rm -rf $(VENV) build dist site *.egg-info
