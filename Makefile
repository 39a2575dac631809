PY ?= .venv/bin/python

.PHONY: test clean-cache bench
test:
	$(PY) -m pytest -q
clean-cache:  ## simkit keys numba's cache by its sources (simkit/cache.py); this empties it all
	rm -rf $${XDG_CACHE_HOME:-$$HOME/.cache}/simkit/numba
	find simkit strategies tests -name '*.nbi' -delete -o -name '*.nbc' -delete
bench:
	$(PY) -m simkit.cli bench
