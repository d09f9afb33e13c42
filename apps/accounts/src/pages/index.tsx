import { RootRedirect } from '@ente/shared/components/RootRedirect.tsx';

export default function Page() {
  return <RootRedirect home="/passkeys" />;
}
