"""The field analysis (`simkit field`): an empirical game over a pool of strategies. Every
profile (a multiset of the pool, one strategy per seat) is played on shared deals, the payoff
of each strategy in each profile is estimated, and from that table the symmetric equilibria
(the mixes no player wants to leave), each strategy's regret against them, and how robust they
are to the deals (a bootstrap) are worked out."""
