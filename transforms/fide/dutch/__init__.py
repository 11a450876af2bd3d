"""FIDE C.04.3, the Dutch system: ``engine.pair_round`` pairs a round.

``state`` (A.2-A.6: scores, colours, floats), ``criteria`` (C1-C3, E.1-E.5, board order),
``brackets`` (the bracket procedure both editions share: C.04.3 B-D), ``rules_2017`` and
``rules_2025`` (what each edition weighs: C4-C21), ``matching`` (the weighted-matching solver).
Nothing is imported here, so that ``chessfed pair`` loads only what it uses."""
