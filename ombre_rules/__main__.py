"""`python -m ombre_rules` runs the `ombre` command line."""
import sys

from .cli import main

sys.exit(main())
