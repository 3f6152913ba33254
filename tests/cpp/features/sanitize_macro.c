/* tests/cpp/features/sanitize_macro.c — gcc's macro for -fsanitize=address */
#ifdef __SANITIZE_ADDRESS__
sanitize_address __SANITIZE_ADDRESS__
#endif
#ifdef __SANITIZE_THREAD__
sanitize_thread
#endif
