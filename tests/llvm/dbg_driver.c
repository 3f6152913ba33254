/* tests/llvm/dbg_driver.c — calls the functions of dbg.cg (dbg.sh). */
long dbg_add(long, long);
long lifted(long);
int main(void) { return dbg_add(1, 2) == 21 && lifted(1) == 2 ? 0 : 1; }
