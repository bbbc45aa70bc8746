from inexeval.launch import main

main()
