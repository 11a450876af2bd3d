"""What every event shares: the chess vocabulary and the scorecard (model), the error
hierarchy (errors), event.toml loading and validation (config), input schemas and casting
(ingest). Nothing here belongs to one regulation."""
