"""Built-in strategies, one package per game and one module per family."""
