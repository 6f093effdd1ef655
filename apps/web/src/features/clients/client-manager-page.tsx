import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function ClientManagerPage() {
  return <ScreenPlaceholder />;
}
