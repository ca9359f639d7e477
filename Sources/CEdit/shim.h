// libedit's readline interface (Debian's libedit-dev), for the REPL's line
// editing, history and completion. readline.h needs stdio.h first.
#include <stdio.h>
#include <editline/readline.h>
