"""The pipeline: the run's flow and each event's flow, their tasks (read, validate, the
rulebook's steps, pages, PDFs, messages, publish, mail), the last good publication, the check
of unchanged events, the output folder's switch and lock, and the run's index."""
