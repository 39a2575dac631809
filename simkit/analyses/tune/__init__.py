"""Tuning (`simkit tune`): race a strategy's settings on shared deals and confirm the winner."""
