// Runs a PAC file as a browser would and prints FindProxyForURL's answer for each host.
//
//   node pac_eval.js FILE HOST...      prints one JSON object {host: answer}
//
// The PAC runs in a fresh context holding only the helper functions browsers provide that
// Faultline's PAC files use (dnsDomainIs, shExpMatch, isPlainHostName), written after
// Mozilla's pac_utils.js; any other global it touches throws, so a PAC file that relies on
// something a browser does not offer fails here too.
'use strict';
const fs = require('fs');
const vm = require('vm');

const [file, ...hosts] = process.argv.slice(2);
if (!file || hosts.length === 0) {
  process.stderr.write('usage: node pac_eval.js FILE HOST...\n');
  process.exit(2);
}

function dnsDomainIs(host, domain) {
  return host.length >= domain.length && host.substring(host.length - domain.length) === domain;
}

function shExpMatch(text, pattern) {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp('^' + escaped + '$').test(text);
}

function isPlainHostName(host) {
  return host.indexOf('.') < 0;
}

const context = vm.createContext({ dnsDomainIs, shExpMatch, isPlainHostName });
vm.runInContext(fs.readFileSync(file, 'utf8'), context, { filename: file, timeout: 5000 });
const answers = {};
for (const host of hosts) {
  const url = (host.includes(':') ? 'https://[' + host + ']/' : 'https://' + host + '/');
  context.__url = url;
  context.__host = host;
  answers[host] = vm.runInContext('FindProxyForURL(__url, __host)', context, { timeout: 5000 });
}
process.stdout.write(JSON.stringify(answers) + '\n');
