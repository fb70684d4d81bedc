/**
 * The manifests the user-path scenarios apply, as a user would write them: Deployments of
 * nginx:1.25 requesting 10m CPU and 16Mi memory, no namespace (the context's, `default`).
 */

export function deploymentsManifest(deployments: number, replicas: number): string {
  const documents: string[] = [];
  for (let i = 0; i < deployments; i++) {
    const name = `app-${i}`;
    documents.push(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        `  name: ${name}`,
        'spec:',
        `  replicas: ${replicas}`,
        '  selector:',
        '    matchLabels:',
        `      app: ${name}`,
        '  template:',
        '    metadata:',
        '      labels:',
        `        app: ${name}`,
        '    spec:',
        '      containers:',
        '      - name: app',
        '        image: nginx:1.25',
        '        resources:',
        '          requests:',
        '            cpu: 10m',
        '            memory: 16Mi',
      ].join('\n'),
    );
  }
  return `${documents.join('\n---\n')}\n`;
}
