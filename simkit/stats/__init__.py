"""The numbers: exact mergeable sums of played deals, their intervals, and how an estimate is written."""
