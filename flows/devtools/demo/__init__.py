"""Generators of demo and random events (seeded, deterministic). Not part of the rulebook:
they make inputs for the demo, the benchmarks and the tests."""
