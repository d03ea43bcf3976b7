from cardbase.cli import main

main()
