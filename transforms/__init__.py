"""chessfed's rulebook: pure functions over polars frames and plain values.

Nothing here opens a file, reads the clock or the environment, or imports prefect;
the flows in ``flows/`` do all I/O and hand values in.
"""
