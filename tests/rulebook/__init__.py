"""The rulebook tier: the transforms (and the readers and generators that feed them); no Prefect."""
