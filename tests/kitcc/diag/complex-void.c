_Complex void v;
