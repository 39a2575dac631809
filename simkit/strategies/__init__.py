"""The strategies: the contract every game's strategies follow (decisions.py: compiling, registering,
the engine's lineup; registry.py: strategies by name; spec.py: `name(param=value)`; plugins.py:
users' strategy files), and the built-in families, one package per game and one module per family."""
