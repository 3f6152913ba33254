/* &&label means a label of the enclosing function: there is none here */
void *p = &&nowhere;
