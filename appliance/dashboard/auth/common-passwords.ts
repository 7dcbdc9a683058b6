/**
 * Passwords of 8 characters or more that lead every published list of leaked passwords, and the
 * ones a guesser tries first on a print-farm box (its own and its neighbours' product names).
 * Written down lower-case; the policy compares without regard to case. Shorter ones are not
 * listed: the length rule refuses them already.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  // Digits and keyboard walks.
  '12345678', '123456789', '1234567890', '0123456789', '01234567', '87654321', '987654321', '0987654321',
  '12341234', '12121212', '11223344', '12344321', '11112222', '13131313', '123123123', '123321123',
  '1234554321', '123456123', '123456654321', '112233445566', '147258369', '159753456', '123654789',
  '741852963', '789456123', '963852741', '147852369', '12345678910', '1122334455', '20202020', '10203040',
  '12345qwert', '1q2w3e4r', '1q2w3e4r5t', '1q2w3e4r5t6y', '1qaz2wsx', '1qazxsw2', '1qaz2wsx3edc', 'zaq12wsx',
  'zaq1zaq1', 'zaq1xsw2', 'q1w2e3r4', 'q1w2e3r4t5', 'q1w2e3r4t5y6', 'qazwsxedc', 'qazwsx123', 'qwertyui',
  'qwertyuiop', 'qwerty12', 'qwerty123', 'qwerty1234', 'qwerty123456', 'qwerty1!', 'qwerty@123', 'qwertz123',
  'qwertzui', 'azertyui', 'azertyuiop', 'azerty123', 'asdfghjk', 'asdfghjkl', 'asdf1234', 'asdfasdf',
  'asdasdasd', 'qweqweqwe', 'qwe123qwe', '123qweasd', '123qweasdzxc', 'qweasdzxc', 'qweasd123', 'qwer1234',
  '1234qwer', '1234asdf', 'zxcvbnm1', 'zxcvbnm123', 'zxcvbnma', 'zxcv1234', 'mnbvcxz1', 'poiuytrewq',
  'lkjhgfdsa', 'abcd1234', 'abcd12345', 'abc12345', 'abc123456', 'abc123abc', 'abcabc123', 'abc@1234',
  'abcdefgh', 'abcdefg1', 'abcdefg123', 'abcdefghi', 'abcdefghij', 'a1b2c3d4', 'a1b2c3d4e5', 'aa123456',
  'aa12345678', 'a12345678', 'a123456789', 'q12345678', 'z12345678', '1a2b3c4d', '123abc123', '12345abc',
  // "password" in its usual disguises.
  'password', 'password1', 'password2', 'password3', 'password11', 'password12', 'password123', 'password1234',
  'password12345', 'password!', 'password1!', 'password123!', 'password@123', 'password#1', 'passw0rd',
  'passw0rd1', 'p@ssw0rd', 'p@ssw0rd1', 'p@ssword', 'p@ssword1', 'pa$$word', 'pa$$w0rd', 'pa55word',
  'pa55w0rd', 'p4ssw0rd', 'p455w0rd', 'p4ssword', 'pass1234', 'pass12345', 'pass@123', 'p@ss1234',
  'passpass', 'passpass1', 'passwort', 'passwort1', 'motdepasse', 'contrasena', 'wachtwoord', 'salasana',
  'haslo123', 'mypassword', 'newpassword', 'yourpassword', 'nopassword', 'thepassword', 'mypass123',
  'secretpassword', 'supersecret', 'topsecret', 'secret12', 'secret123', 'secret1234',
  // Words and phrases people pick.
  'iloveyou', 'iloveyou1', 'iloveyou2', 'iloveyou!', 'iloveu123', 'loveyou1', 'lovelove', 'lovely123',
  'letmein1', 'letmein!', 'letmein12', 'letmein123', 'letmeinnow', 'welcome1', 'welcome12', 'welcome123',
  'welcome!', 'welcome2', 'welcome@123', 'sunshine', 'sunshine1', 'princess', 'princess1', 'football',
  'football1', 'baseball', 'baseball1', 'basketball', 'superman', 'superman1', 'batman123', 'spiderman',
  'trustno1', 'trustnoone', 'starwars', 'starwars1', 'dragon12', 'dragon123', 'master12', 'master123',
  'mastermind', 'monkey12', 'monkey123', 'shadow12', 'shadow123', 'michael1', 'michael123', 'jennifer',
  'jessica1', 'michelle', 'jordan23', 'jordan123', 'daniel123', 'anthony1', 'charlie1', 'charlie123',
  'computer', 'computer1', 'internet', 'internet1', 'whatever', 'whatever1', 'freedom1', 'hello123',
  'hello1234', 'helloworld', 'helloworld1', 'chocolate', 'cookie123', 'butterfly', 'babygirl', 'babygirl1',
  'liverpool', 'chelsea1', 'arsenal1', 'manchester', 'barcelona', 'mercedes', 'ferrari1', 'corvette',
  'mustang1', 'pokemon1', 'minecraft', 'fortnite', 'playstation', 'nintendo', 'killer12', 'hunter12',
  'soccer12', 'hockey12', 'matrix123', 'opensesame', 'security', 'security1', 'everything', 'something',
  'nothing1', 'goodluck', 'godisgood', 'jesus123', 'blessed1', 'family123', 'summer2023', 'summer2024',
  'summer2025', 'winter2024', 'winter2025', 'spring2024', 'spring2025', 'autumn2024', 'samsung1',
  'samsung123', 'google123', 'facebook', 'facebook1', 'linkedin', 'myspace1', 'logitech', 'microsoft',
  'windows10', 'windows11', 'ubuntu123', 'debian123', 'linux123',
  // Defaults and throwaways of admins and appliances.
  'changeme', 'changeme1', 'changeme123', 'changeit', 'default1', 'default123', 'admin123', 'admin1234',
  'admin12345', 'admin@123', 'admin2024', 'admin2025', 'adminadmin', 'admin123!', 'administrator',
  'administrator1', 'adminpass', 'adminpassword', 'root1234', 'root12345', 'rootroot', 'rootpass',
  'rootpassword', 'toortoor', 'guest123', 'guest1234', 'guestguest', 'user1234', 'user12345', 'useruser',
  'test1234', 'test12345', 'test123456', 'testtest', 'testing1', 'testing123', 'test@123', 'demo1234',
  'demodemo', 'temp1234', 'temppass', 'temporary', 'login123', 'letmein2', 'support1', 'support123',
  'service1', 'manager1', 'system123', 'server123', 'network1', 'wireless', 'firewall', 'operator',
  'qwerty11', 'raspberry', 'raspberrypi', 'raspberry1', 'pi123456', 'octoprint', 'octoprint1', 'mainsail',
  'moonraker', 'klipper1', 'klipper123', 'prusa123', 'prusaslicer', 'bambulab', 'bambulab1', 'bambu123',
  'printyard', 'printyard1', 'printyard123', 'printer1', 'printer123', 'printfarm', '3dprinter',
  '3dprinting', '3dprint123', 'filament', 'dashboard', 'dashboard1',
]);
