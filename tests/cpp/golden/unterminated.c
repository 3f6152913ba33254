// a conditional left open at the end of the file
#if 1
#ifdef FOO
x
