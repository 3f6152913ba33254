long char c;
