// Browser tests use Debian's chromium and never download a browser.
// When it is missing and we are root on Debian/Ubuntu, install the package with apt;
// otherwise stop and say exactly what to install.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log('Installing Debian chromium for the browser tests (apt-get install chromium)...');
    execSync('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium', {
      stdio: 'inherit'
    });
  } else {
    console.error(
      'Browser tests need Debian/Ubuntu chromium at /usr/bin/chromium.\n' +
        'Install it with:  sudo apt-get install -y chromium\n' +
        '(Nodeplane never downloads a browser by itself.)'
    );
    process.exit(1);
  }
}
