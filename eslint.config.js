import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'dashboard/dist/**', '.cache/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // one module names the Kafka client library (api-server/src/kafka/kafka-client.ts)
    files: ['api-server/src/**/*.ts'],
    ignores: ['api-server/src/kafka/kafka-client.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@platformatic/kafka', message: 'import the Kafka client from api-server/src/kafka/kafka-client.ts' }] }],
    },
  },
);
