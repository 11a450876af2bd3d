"""The correspondence kind (stages of round-robin sections, the Golden Knights): its flow,
pages and letters."""
