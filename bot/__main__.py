"""`python -m bot`: the Discord bot when DISCORD_TOKEN is set, otherwise the local simulator.

    python -m bot                      bot with a token, simulator without
    python -m bot local [options]      the local simulator (see bot/local.py: --script, --db, --out, --channel)
    python -m bot discord              the Discord bot (fails without DISCORD_TOKEN)
"""

from __future__ import annotations

import logging
import sys

from .config import Config


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    config = Config.from_env()
    logging.basicConfig(level=getattr(logging, config.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    mode = args.pop(0) if args and args[0] in ("local", "discord") else None
    if mode is None:
        mode = "discord" if config.discord_token else "local"
    if mode == "local":
        from .local import main as local_main

        return local_main(args)
    if not config.discord_token:
        print("DISCORD_TOKEN is not set (see .env.example); `python -m bot local` plays without Discord.",
              file=sys.stderr)
        return 2
    from .discord_app import run_bot

    return run_bot(config)


if __name__ == "__main__":
    sys.exit(main())
