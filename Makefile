PY ?= .venv/bin/python

.PHONY: test clean-cache bench
test:
	$(PY) -m pytest -q
clean-cache:  ## numba caches can go stale when a callee in another module changes
	find simkit strategies -name '*.nbi' -delete -o -name '*.nbc' -delete
bench:
	$(PY) -m simkit.cli bench
