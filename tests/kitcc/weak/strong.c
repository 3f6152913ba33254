/* tests/kitcc/weak/strong.c — strong definitions that win over weak.c's */
int overridden(void) { return 20; }
int optional_fn(void) { return 7; }
int data_alias = 9;
