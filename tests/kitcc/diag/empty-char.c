int c = '';
