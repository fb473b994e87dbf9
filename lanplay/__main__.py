"""``python -m lanplay``: the headless commands of ``lanplay``.

The core never imports the window, so with no command this says where it is
(the installed ``lanplay`` command, or ``python -m ui``) instead of opening it.
"""

import sys

from lanplay.cli import main

sys.exit(main())
