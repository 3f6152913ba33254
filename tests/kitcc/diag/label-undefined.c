/* a label whose address is taken must be defined in the function */
void *f(void) {
  return &&missing;
}
