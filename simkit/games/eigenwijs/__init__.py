"""Eigenwijs (Jacques Zeimet): rules E1–E14 and the model of the human side H1–H8."""
