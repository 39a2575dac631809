"""A person at the table: `simkit play`'s hands against the strategies, graded, and replayed."""
