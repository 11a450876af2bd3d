"""The command-line tier: the command line, in process or as a subprocess, without Prefect flows."""
