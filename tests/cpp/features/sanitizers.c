/* tests/cpp/features/sanitizers.c — what a program can ask about the
 * sanitizers it is built with (features.sh compares the answers with clang-16) */
#if __has_feature(address_sanitizer)
address_sanitizer
#endif
#if __has_extension(address_sanitizer)
ext_address_sanitizer
#endif
#if __has_feature(undefined_behavior_sanitizer)
undefined_behavior_sanitizer
#endif
#if __has_feature(coverage_sanitizer)
coverage_sanitizer
#endif
#if __has_feature(memory_sanitizer)
memory_sanitizer
#endif
#if __has_feature(thread_sanitizer) || __has_feature(hwaddress_sanitizer)
unsupported_sanitizer
#endif
#if __has_feature(dataflow_sanitizer) || __has_feature(safe_stack) || __has_feature(leak_sanitizer)
unsupported_feature
#endif
