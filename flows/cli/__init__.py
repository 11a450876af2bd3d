"""The ``chessfed`` command line (main: ``run``, ``deploy``, ``serve``, ``import-trf`` and the
parser) and the office's other subcommands, one module each: pair, standings, mail, berger,
check_trf, deploy, server, input_reference, demo_inputs."""
