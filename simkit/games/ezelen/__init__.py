"""Ezelen (Spoons, Pig, Donkey): rules Z1–Z7 and the model of the human side M1–M8."""
