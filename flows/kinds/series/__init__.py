"""A series over the season's events (``[event] kind = "series"``): its flow, pages and letters."""
