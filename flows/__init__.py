"""chessfed's flows: every read, write, render and send happens here (Prefect 3)."""
