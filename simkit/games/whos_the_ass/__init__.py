"""Who's the Ass? (Wie is de Ezel? / Einer ist immer der Esel): rules, engines, traces."""
