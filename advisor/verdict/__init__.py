"""The verdict: the projection and the costs turned into facts, the rule base evaluated on them
(durable_rules), the conflict policy and the count guard, the search beyond the machine, and the
``Recommendation`` every presenter shows."""
