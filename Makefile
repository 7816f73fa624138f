# Two commands do all the set-up:  `make lab` opens the course, `make test` runs every test.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NB     ?=

.PHONY: setup lab test notebooks benchmark slides book serve-book clean
setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml tools/jupyterlab_overrides.json $(shell find tools/image-alt/labextension -type f)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps --editable .
	# the course's JupyterLab extension: figures' descriptions become their images' alt text
	$(PY) -m pip install --quiet --no-deps --force-reinstall ./tools/image-alt
	# JupyterLab's defaults for this course: no "get Jupyter news?" pop-up, no update check
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp tools/jupyterlab_overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	# nbgrader is for `make assignments`: keep its menus and server extensions out of a learner's lab
	$(VENV)/bin/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader >/dev/null
	for ext in formgrader validate_assignment assignment_list course_list; do \
		$(VENV)/bin/jupyter server extension disable --sys-prefix nbgrader.server_extensions.$$ext >/dev/null 2>&1; done
	touch $(STAMP)

# `make lab LANG=it` opens the Italian course (it, ru, fa, es), with JupyterLab's menus in that language
# where PyPI has its language pack (not Persian), and right-to-left paragraphs aligned right (tools/templates/rtl.css,
# as custom CSS: that lab reads its settings and config from build/lab-settings/<lang>/, not from your ~/.jupyter).
# LANG is also the shell's locale: any value but it, ru, fa, es means English.
COURSE_LANGS := it ru fa es
COURSE_LANG  := $(filter $(LANG),$(COURSE_LANGS))
LAB_LOCALE   := $(if $(filter-out fa,$(COURSE_LANG)),$(COURSE_LANG)_$(shell echo $(COURSE_LANG) | tr a-z A-Z),default)
LAB_SETTINGS := build/lab-settings/$(COURSE_LANG)

lab: setup            ## open the course in JupyterLab on notebook 00 (LANG=it|ru|fa|es: in that language)
ifeq ($(COURSE_LANG),)
	$(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/00_start_here.ipynb
else
	mkdir -p $(LAB_SETTINGS)/@jupyterlab/translation-extension
	echo '{"locale": "$(LAB_LOCALE)"}' > $(LAB_SETTINGS)/@jupyterlab/translation-extension/plugin.jupyterlab-settings
	mkdir -p $(LAB_SETTINGS)/config/custom && cp tools/templates/rtl.css $(LAB_SETTINGS)/config/custom/custom.css
	LANG=C.UTF-8 JUPYTERLAB_SETTINGS_DIR=$(CURDIR)/$(LAB_SETTINGS) JUPYTER_CONFIG_DIR=$(CURDIR)/$(LAB_SETTINGS)/config \
		$(VENV)/bin/jupyter lab --LabApp.custom_css=True $(if $(filter 0,$(shell id -u)),--allow-root) \
		notebooks/$(COURSE_LANG)/00_start_here.ipynb
endif

test: setup           ## lint, then unit, widget, hygiene, install and browser tests, then strict nbval on every notebook
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest --nbval -n 2 --dist loadfile  # two workers, one test file each at a time

.PHONY: test-fast
test-fast: setup      ## the inner loop: lint, the maths, course and hygiene tests; no notebook runs, no browser, no npm
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -m "not slow" -n 2 --dist loadfile tests

notebooks: setup      ## rebuild notebooks/*.ipynb from their .py sources and execute them (NB=01 for one)
	$(PY) tools/build_notebooks.py $(NB)
	$(PY) tools/readme.py  # the README's verdict column, from the ledger

benchmark: setup      ## time every notebook and every widget redraw; write the tables into README.md
	$(PY) tools/benchmark.py --readme

.PHONY: test-latest
test-latest:          ## drift check as on Colab/Binder: newest releases pyproject.toml allows, every notebook + unit tests
	test -x .venv-latest/bin/python || python3 -m venv .venv-latest
	.venv-latest/bin/python -m pip install --quiet --upgrade pip
	.venv-latest/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager torch==2.13.0 . \
		nbclient ipykernel nbformat nbconvert jupytext pytest pyyaml packaging
	.venv-latest/bin/python -m pip install --quiet --no-deps --force-reinstall .  # this tree's helpers, not editable
	.venv-latest/bin/python tools/test_latest.py

.PHONY: assignments
assignments: setup    ## nbgrader assignments from the notebooks' exercises: build/assignments/{source,release}/ (NB=01 for one)
	$(PY) tools/assignments.py $(NB)

.PHONY: gpu-bench
gpu-bench: setup      ## on a CUDA machine: measure the GPU sweeps again into build/gpu-bench/ (formats of helpers/data/gpu/)
	$(PY) tools/gpu_bench.py

.PHONY: labextension slides colab
labextension: setup   ## rebuild tools/image-alt/labextension/ from its index.js (needs npm) and install it again
	cd tools/image-alt && npm ci --no-audit --no-fund --silent && rm -rf labextension && \
		node node_modules/@jupyterlab/builder/lib/build-labextension.js --core-path "$$($(abspath $(PY)) -c \
		'import jupyterlab, pathlib; print(pathlib.Path(jupyterlab.__file__).parent / "staging")')" . >/dev/null
	$(PY) -m pip install --quiet --no-deps --force-reinstall ./tools/image-alt

slides: setup         ## reveal.js slides that present offline, in build/slides/ (serve: python -m http.server -d build/slides)
	$(PY) tools/slides.py
	for lang in $(COURSE_LANGS); do $(PY) tools/slides.py --lang $$lang; done

book: setup           ## the course as a static web book, five languages, offline: build/book/ (needs npm once, for MathJax)
	$(PY) tools/book/build.py
	$(PY) tools/book/check.py build/book

serve-book:           ## serve build/book/ on http://localhost:8000/ (after `make book`)
	$(PY) -m http.server --directory build/book 8000

.PHONY: translations
translations: setup   ## notebooks/<lang>/ from the English notebooks and notebooks/<lang>/sources/ (no re-execution)
	$(PY) tools/translations.py status || true
	$(PY) tools/translations.py build

colab: setup          ## rewrite every notebook's Colab badge and setup cell from [tool.why-transformers] in pyproject.toml
	$(PY) tools/colab.py

clean:
	rm -rf $(VENV) .venv-latest build artifacts
