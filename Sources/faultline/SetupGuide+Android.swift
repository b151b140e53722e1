/// The Android emulator, and the Android part of a physical device.
extension SetupGuide {
    func androidEmulator() -> [String] {
        // 10.0.2.2 is the emulator's alias of the host's loopback; a listener on one LAN address is reached there.
        let proxyThere = proxy.isLoopback || proxy.isWildcard ? proxy.on("10.0.2.2") : proxy
        let adminThere = admin.isLoopback || admin.isWildcard ? admin.on("10.0.2.2") : admin
        let hash = ca?.subjectHashOld ?? "$(openssl x509 -inform PEM -subject_hash_old -noout -in \(caPath))"
        var lines = [
            "Android emulator: proxy \(proxyThere.text), admin API http://\(adminThere.text)",
            "In the emulator 10.0.2.2 is this machine's loopback, so a listener on 127.0.0.1 is reachable there.",
        ]
        lines += caLines
        lines += [
            "",
            "1. Send the emulator's traffic through Faultline:",
            "     adb shell settings put global http_proxy \(proxyThere.text)",
            "   Undo: adb shell settings put global http_proxy :0",
            "   (or start it with the proxy: emulator -avd NAME -http-proxy http://\(proxy.isWildcard ? proxy.on("127.0.0.1").text : proxy.text))",
            "2. Trust the CA as a user CA (any image):",
            "     adb push \(caPath) /sdcard/Download/faultline-ca.crt",
            "   then Settings → Security & privacy → More security settings → Encryption & credentials →",
            "   Install a certificate → CA certificate → faultline-ca.crt (or open http://\(adminThere.text)/ca.der",
            "   in the emulator's Chrome and install the download the same way).",
        ]
        lines += debugOverridesLines
        lines += [
            "3. Or in the system store, trusted by every app including release builds (an image without",
            "   Google Play, whose adbd can run as root; the file name is the CA's subject hash):",
            "     cp \(caPath) \(hash).0",
            "   Android 13 and older (start the emulator with -writable-system):",
            "     adb root && adb disable-verity && adb reboot",
            "     adb root && adb remount",
            "     adb push \(hash).0 /system/etc/security/cacerts/\(hash).0",
            "     adb shell chmod 644 /system/etc/security/cacerts/\(hash).0 && adb reboot",
            "   Android 14 and newer read CAs from the Conscrypt APEX, /apex/com.android.conscrypt/cacerts,",
            "   which cannot be remounted: overlay it after every boot (a tmpfs holding its certificates and",
            "   ours, bind-mounted into zygote's and every app's mount namespace):",
            "     adb root",
            "     adb push \(hash).0 /data/local/tmp/\(hash).0",
            "     adb push faultline-ca-apex.sh /data/local/tmp/ && adb shell sh /data/local/tmp/faultline-ca-apex.sh",
            "   with faultline-ca-apex.sh:",
        ]
        lines += apexScript(hash: hash).map { "     " + $0 }
        lines += ["   Apps started before the script keep the old store until they restart."]
        lines += sessionLines(clientAddress: proxyThere.host == "10.0.2.2" ? "127.0.0.1" : bare(proxy.host), note:
            "  The emulator's connections come from this machine itself, like every local client's: the\n"
            + "  session catches those too; the session header (X-Faultline-Session) tells tests apart.")
        return lines
    }

    /// The Android 14 system-store overlay, as a shell script run as root on the emulator.
    func apexScript(hash: String) -> [String] {
        [
            "set -e",
            "store=/system/etc/security/cacerts; apex=/apex/com.android.conscrypt/cacerts",
            "copy=/data/local/tmp/faultline-cacerts; rm -rf $copy; mkdir -p -m 700 $copy",
            "cp $apex/* $copy/ && cp /data/local/tmp/\(hash).0 $copy/",
            "mount -t tmpfs tmpfs $store && cp $copy/* $store/",
            "chown root:root $store/*; chmod 644 $store/*; chcon u:object_r:system_file:s0 $store/*",
            "mount --bind $store $apex",
            "for zygote in $(pidof zygote zygote64); do",
            "  nsenter --mount=/proc/$zygote/ns/mnt -- mount --bind $store $apex",
            "  for app in $(ps -o PID -P $zygote | grep -v PID); do nsenter --mount=/proc/$app/ns/mnt -- mount --bind $store $apex; done",
            "done",
        ]
    }

    /// The steps on an Android phone that reaches Faultline at `proxy` and `admin`.
    func androidDevice(proxy: SetupAddress, admin: SetupAddress) -> [String] {
        var lines = [
            "Android phone:",
            "  1. Settings → Network & internet → Internet → the Wi-Fi network's ⚙ → ✎ → Advanced options → Proxy:",
            "       Manual: Proxy hostname \(bare(proxy.host)), Proxy port \(proxy.port)",
            "       or Proxy Auto-Config: PAC URL http://\(admin.text)/proxy.pac",
            "     (Android has no field for proxy credentials: let the phone's address in with the forward",
            "     listener's allowed client networks instead.)",
            "  2. In Chrome on the phone open http://\(admin.text)/ca.der (it is saved to Downloads), then",
            "     Settings → Security & privacy → More security settings → Encryption & credentials →",
            "     Install a certificate → CA certificate → faultline-ca.cer.",
        ]
        lines += debugOverridesLines
        lines += [
            "  Over USB instead, with Faultline on loopback: adb reverse tcp:\(self.proxy.port) tcp:\(self.proxy.port) and",
            "  adb reverse tcp:\(self.admin.port) tcp:\(self.admin.port), then the phone's proxy is 127.0.0.1:\(self.proxy.port)",
            "  (adb shell settings put global http_proxy 127.0.0.1:\(self.proxy.port); undo with :0) and its admin",
            "  API http://127.0.0.1:\(self.admin.port); its requests then come from 127.0.0.1.",
        ]
        return lines
    }
}
