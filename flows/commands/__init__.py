"""The ``chessfed`` subcommands other than ``run``: pair, standings, simulate, crosscheck,
demo-inputs, import-trf, bench. Each module registers its own parser."""
