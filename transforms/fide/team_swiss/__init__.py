"""FIDE C.04.6, the Swiss Team Pairing System (2026): ``engine.pair_round`` pairs a round.

(Module map and timings: to be completed.)"""
