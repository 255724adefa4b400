"""`python -m assistant` is the same as the `assistant` command."""

from assistant.cli import main

if __name__ == "__main__":
    main()
