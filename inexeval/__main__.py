from inexeval.cli import main

main()
