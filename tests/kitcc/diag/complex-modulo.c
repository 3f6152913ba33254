_Complex int f(_Complex int a, _Complex int b) { return a % b; }
